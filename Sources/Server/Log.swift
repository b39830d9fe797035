import Logging

/// This module's diagnostics, one line each, tagged "server".
let log = Logger("server")
