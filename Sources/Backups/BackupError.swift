/// Why a backup, a check or a restore could not be done, in words a person can act on.
public struct BackupError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// The destination of a backup, or the target of a restore, already holds something.
        case notEmpty
        /// The source is not a backup (no readable manifest) or is one this binary cannot read.
        case notABackup
        /// The backup failed its check; the description lists what is wrong.
        case damaged
        /// A database in the backup is newer than this binary.
        case newerSchema
        /// Reading or writing a file failed.
        case io
    }

    public let code: Code
    public let description: String

    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
