import Logging

/// This module's diagnostics, one line each, tagged "front" like the rest of the front's, so moving the state out of
/// `App` changed no log line.
let log = Logger("front")
