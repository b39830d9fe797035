import ImageFixtures
import Imaging
import Testing

struct ResizeTests {
    @Test(
        "resized produces exactly the requested size",
        arguments: [(1, 1), (7, 5), (99, 3), (100, 75), (250, 10), (400, 300), (3, 200)]
    )
    func exactSizes(width: Int, height: Int) {
        let source = TestImages.gradient(width: 100, height: 75)

        let image = source.resized(width: width, height: height)

        #expect(image.width == width && image.height == height)
        #expect(image.pixels.count == width * height * 3)
    }

    @Test("a constant image stays exactly constant when shrunk or enlarged")
    func constantStaysConstant() {
        let source = RGBImage(width: 97, height: 61, red: 12, green: 200, blue: 99)

        for (width, height) in [(40, 30), (13, 61), (97, 7), (200, 150), (1, 1)] {
            let image = source.resized(width: width, height: height)
            #expect(
                image == RGBImage(width: width, height: height, red: 12, green: 200, blue: 99),
                "\(width)×\(height)"
            )
        }
    }

    @Test("resizing to the same size returns the image unchanged")
    func sameSize() {
        let source = TestImages.checker(width: 10, height: 6, cell: 1)

        #expect(source.resized(width: 10, height: 6) == source)
    }

    @Test("shrinking a gradient keeps it the same gradient")
    func gradientShrinks() {
        let source = TestImages.gradient(width: 800, height: 600)

        let image = source.resized(width: 200, height: 150)

        #expect(TestImages.meanAbsoluteError(image, TestImages.gradient(width: 200, height: 150)) < 2)
    }

    @Test(
        "a large reduction with uneven block sizes keeps the gradient in place",
        arguments: [(1001, 999), (4000, 3000)]
    )
    func largeReductionGeometry(width: Int, height: Int) {
        let source = TestImages.gradient(width: width, height: height)

        let image = source.resized(width: 97, height: 103)

        #expect(TestImages.meanAbsoluteError(image, TestImages.gradient(width: 97, height: 103)) < 2)
    }

    @Test("enlarging a gradient keeps it the same gradient")
    func gradientEnlarges() {
        let source = TestImages.gradient(width: 50, height: 40)

        let image = source.resized(width: 175, height: 120)

        #expect(TestImages.meanAbsoluteError(image, TestImages.gradient(width: 175, height: 120)) < 3)
    }

    @Test("shrinking a fine checkerboard averages it to mid grey instead of aliasing")
    func antiAliasing() {
        let source = TestImages.checker(width: 300, height: 300, cell: 1)

        let image = source.resized(width: 70, height: 70)

        for value in image.pixels[(10 * 70 * 3)..<(60 * 70 * 3)] {
            #expect(abs(Int(value) - 128) <= 3)
        }
    }

    @Test(
        "resizedToFit keeps the aspect ratio and touches the bound",
        arguments: [(4000, 3000), (3000, 4000), (2500, 2500)]
    )
    func fitKeepsAspect(width: Int, height: Int) {
        let size = Imaging.fittedSize(width: width, height: height, maxWidth: 2000, maxHeight: 2000)

        #expect(max(size.width, size.height) == 2000)
        #expect(abs(Double(size.width) / Double(size.height) - Double(width) / Double(height)) < 0.001)
    }

    @Test("resizedToFit shrinks a landscape image to the bounding width")
    func fitLandscape() {
        let source = TestImages.gradient(width: 300, height: 100)

        let image = source.resizedToFit(maxWidth: 60, maxHeight: 60)

        #expect(image.width == 60 && image.height == 20)
    }

    @Test("resizedToFit rounds the free side and never goes below 1 pixel")
    func fitRounding() {
        #expect(Imaging.fittedSize(width: 1000, height: 333, maxWidth: 100, maxHeight: 100) == (100, 33))
        #expect(Imaging.fittedSize(width: 1000, height: 335, maxWidth: 100, maxHeight: 100) == (100, 34))
        #expect(Imaging.fittedSize(width: 5000, height: 1, maxWidth: 100, maxHeight: 100) == (100, 1))
        #expect(Imaging.fittedSize(width: 10, height: 400, maxWidth: 100, maxHeight: 200) == (5, 200))
    }

    @Test("resizedToFit never enlarges and returns the image itself when it already fits")
    func fitNoUpscale() {
        let source = TestImages.gradient(width: 120, height: 80)

        #expect(source.resizedToFit(maxWidth: 2000, maxHeight: 2000) == source)
        #expect(source.resizedToFit(maxWidth: 120, maxHeight: 80) == source)
        #expect(source.resizedToFit(maxWidth: 500, maxHeight: 40).width == 60)
    }
}
