import App
import Server
import Testing

/// The flags that size the image pool and the per-client upload rate.
struct UploadLimitFlagsTests {
    func serve(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeConfiguration {
        guard case .serve(let configuration) = try Command.parse(["serve"] + arguments, environment: environment) else {
            throw Command.UsageError(description: "expected serve")
        }
        return configuration
    }

    @Test("the pool and the rate default to one worker per core, 16 waiting and 30 uploads a minute")
    func defaults() throws {
        let configuration = try serve([])
        #expect(configuration.imageWorkers >= 1)
        #expect(configuration.imageQueue == 16)
        #expect(configuration.uploadsPerMinute == 30)
    }

    @Test("--image-workers, --upload-queue and --uploads-per-minute set them, from flags or the environment")
    func flagsAndEnvironment() throws {
        let flags = try serve(["--image-workers", "3", "--upload-queue", "0", "--uploads-per-minute", "5"])
        #expect(flags.imageWorkers == 3 && flags.imageQueue == 0 && flags.uploadsPerMinute == 5)
        let environment = try serve([], environment: ["GRAIN_STORIES_UPLOADS_PER_MINUTE": "12", "GRAIN_STORIES_IMAGE_WORKERS": "2"])
        #expect(environment.uploadsPerMinute == 12 && environment.imageWorkers == 2)
    }

    @Test("out-of-range or non-numeric values are refused with the accepted range")
    func refusals() {
        for arguments in [["--image-workers", "0"], ["--upload-queue", "-1"], ["--uploads-per-minute", "many"], ["--uploads-per-minute", "0"]] {
            #expect(throws: Command.UsageError.self, "\(arguments)") { try serve(arguments) }
        }
    }
}
