import Logging

/// This module's diagnostics, one line each, tagged "auth".
let log = Logger("auth")
