import Logging

/// This module's diagnostics, one line each, tagged "publishing".
let log = Logger("publishing")
