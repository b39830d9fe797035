import App
import Backups
import Foundation
import FrontState
import Metrics
import Storage
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The server's side of `/healthz`, `/readyz` and `/metrics`: each database file starts as SQLite's do, opens and
/// answers a query, the blob directory is a writable folder, and the counters come with the sizes of the databases
/// and the blobs.
final class ServerHealth: ServerProbes {
    let dataDirectory: String
    let metrics: Metrics
    /// The databases this server serves from (the backend's two are absent with `--appview`, `front.sqlite` with
    /// `--sessions`).
    let databases: [String]
    let checksBlobs: Bool
    /// The PostgreSQL database that holds the sessions instead of `front.sqlite` (`--sessions`).
    let sharedSessions: SharedSessions?
    private let accepting = Atomic(false)

    init(dataDirectory: String, metrics: Metrics, embedded: Bool, sharedSessions: SharedSessions? = nil) {
        self.dataDirectory = dataDirectory
        self.metrics = metrics
        databases = DataLayout.grainStories.databases.filter {
            $0 == "front.sqlite" ? sharedSessions == nil : embedded
        }
        checksBlobs = embedded
        self.sharedSessions = sharedSessions
    }

    /// Set once serving starts and cleared when a stop begins.
    func setAccepting(_ value: Bool) { accepting.store(value, ordering: .relaxed) }

    var isAccepting: Bool { accepting.load(ordering: .relaxed) }

    func problems() -> [String] {
        var problems: [String] = []
        for name in databases {
            let path = dataDirectory + "/" + name
            guard Database.headerIsIntact(ofFileAt: path) else {
                problems.append("\(name) is damaged")
                continue
            }
            do {
                guard try Database.schemaVersion(ofFileAt: path) != nil else {
                    problems.append("\(name) is missing")
                    continue
                }
            } catch {
                problems.append("\(name) does not answer")
            }
        }
        if let problem = sharedSessions?.healthProblem() { problems.append(problem) }
        if checksBlobs {
            let blobs = dataDirectory + "/" + DataLayout.grainStories.blobDirectory
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: blobs, isDirectory: &isDirectory) || !isDirectory.boolValue {
                problems.append("the blob directory is missing")
            } else if access(blobs, W_OK) != 0 {
                problems.append("the blob directory is not writable")
            }
        }
        return problems
    }

    func metrics(adding gauges: [Gauge]) -> String {
        var all = gauges
        for name in databases {
            let bytes = ["", "-wal"].reduce(0) { $0 + Self.size(dataDirectory + "/" + name + $1) }
            all.append(Gauge("grain_database_bytes", [Label("file", name)], value: Double(bytes), help: "Size of each database, its WAL included."))
        }
        if checksBlobs {
            let folder = dataDirectory + "/" + DataLayout.grainStories.blobDirectory
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            all.append(Gauge("grain_blob_files", value: Double(names.count), help: "Files in the blob directory (photos and their sizes)."))
            all.append(
                Gauge(
                    "grain_blob_bytes", value: Double(names.reduce(0) { $0 + Self.size(folder + "/" + $1) }),
                    help: "Bytes of the blob directory."))
        }
        all.append(Gauge("grain_up", value: 1, help: "1 while the server answers."))
        return metrics.exposition(gauges: all)
    }

    static func size(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }
}
