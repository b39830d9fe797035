import Logging

/// This module's diagnostics, one line each, tagged "backups".
let log = Logger("backups")
