import Logging

/// This module's diagnostics, one line each, tagged "backend".
let log = Logger("backend")
