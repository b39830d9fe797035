import Logging

/// This module's diagnostics, one line each, tagged "front".
let log = Logger("front")
