import ImageFixtures
import Imaging
import Testing

struct PipelineTests {
    /// No timing is asserted; this exercises the story-photo path at phone-camera size (4032×3024, 12 MP),
    /// which runs in well under a second even in debug builds.
    @Test("a 12 MP JPEG goes through DCT-scaled decode, fit to 2000 px and encode at the right size")
    func storyPhotoPipeline() throws {
        // setup
        let source = TestImages.gradient(width: 4032, height: 3024)
        let jpeg = try Imaging.encodeJPEG(source, quality: 90)
        let target = Imaging.fittedSize(width: 4032, height: 3024, maxWidth: 2000, maxHeight: 2000)

        // MUT
        let decoded = try Imaging.decode(jpeg, atLeast: target)
        let fitted = decoded.resized(width: target.width, height: target.height)
        let output = try Imaging.encodeJPEG(fitted, quality: 85)

        // validate
        #expect(decoded.width == 2016 && decoded.height == 1512)
        #expect(try Imaging.readInfo(output) == ImageInfo(format: .jpeg, width: 2000, height: 1500))
        #expect(TestImages.meanAbsoluteError(fitted, TestImages.gradient(width: 2000, height: 1500)) < 2)
    }
}
