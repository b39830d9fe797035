import Foundation
import TestSupport
import Testing

/// The Docker image cannot be built on this machine (no Docker engine), so what its build stage needs is checked
/// here against the Makefile it runs: the image once failed to build because `make places-data` needed a script
/// the stage never copied (issue 10 item 7).
struct DockerfileTests {
    static let dockerfile = (try? String(contentsOf: repositoryRoot.appendingPathComponent("Dockerfile"), encoding: .utf8)) ?? ""

    /// The build stage's lines up to the first `RUN make places-data`, joined where they continue with `\`.
    static var buildStageBeforePlaces: [String] {
        let joined = dockerfile.replacingOccurrences(of: "\\\n", with: " ")
        let lines = joined.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return Array(lines.prefix { $0 != "RUN make places-data" })
    }

    @Test("the build stage copies everything make places-data needs and installs the tools its recipe runs")
    func placesDataBuildsInTheImage() throws {
        let stage = Self.buildStageBeforePlaces
        try #require(stage.count < Self.dockerfile.split(separator: "\n").count, "the Dockerfile no longer runs make places-data")
        // A directory holding only what the stage copied, as the image's /src is when make runs.
        let context = FileManager.default.temporaryDirectory.appendingPathComponent("docker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: context, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: context) }
        for line in stage where line.hasPrefix("COPY ") && !line.contains("--from") {
            let parts = line.split(separator: " ").dropFirst().map(String.init)
            for source in parts.dropLast() {
                try FileManager.default.copyItem(
                    at: repositoryRoot.appendingPathComponent(source), to: context.appendingPathComponent(source))
            }
        }
        // Throws with make's output when the stage lacks what the recipe needs (a missing script: exit 2).
        let text = try Tool.run(["make", "-C", context.path, "-n", "places-data"], what: "make places-data in the image's build stage")
        let installed = stage.filter { $0.contains("apt-get install") }.joined(separator: " ").split(separator: " ").map(String.init)
        // The recipe's commands that a slim image lacks, and the Debian package that brings each.
        for (command, package) in [("unzip ", "unzip"), ("-m pip ", "python3-pip")] where text.contains(command) {
            #expect(installed.contains(package), "the recipe runs `\(command)` but the build stage does not install \(package)")
        }
        // The runtime stage copies the tables the recipe makes, by the names it makes them under.
        for line in Self.dockerfile.split(separator: "\n") where line.hasPrefix("COPY --from=build /src/.build/places/") {
            let path = String(line.split(separator: " ")[2].dropFirst("/src/".count))
            #expect(text.contains("mv \(path).tmp \(path)"), "the build stage makes no \(path)")
        }
    }

    @Test("the image runs the command line the deployment suite tests on a non-loopback address")
    func entrypointIsATestedTopology() {
        // DeploymentSuiteTests.dockerCommandLineOnTheNetwork serves exactly this, with its own data directory.
        #expect(
            Self.dockerfile.contains(#"ENTRYPOINT ["grain-stories", "serve", "--host", "0.0.0.0", "--port", "8080", "--data", "/data"]"#))
    }
}
