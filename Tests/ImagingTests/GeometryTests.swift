import ImageFixtures
import Imaging
import Testing

struct GeometryTests {
    /// A 2×3 image whose pixels are labelled a–f (row by row), each label a distinct grey level:
    ///
    ///     a b
    ///     c d
    ///     e f
    static let labelled = image(width: 2, height: 3, labels: "abcdef")

    static func image(width: Int, height: Int, labels: String) -> RGBImage {
        RGBImage(
            width: width,
            height: height,
            pixels: labels.utf8.flatMap { [$0, $0 &+ 1, $0 &+ 2] }
        )
    }

    @Test(
        "EXIF orientations 1–8 move the labelled pixels to the right places",
        arguments: [
            (1, 2, 3, "abcdef"),
            (2, 2, 3, "badcfe"),  // mirror horizontally
            (3, 2, 3, "fedcba"),  // rotate 180°
            (4, 2, 3, "efcdab"),  // mirror vertically
            (5, 3, 2, "acebdf"),  // transpose
            (6, 3, 2, "ecafdb"),  // rotate 90° clockwise
            (7, 3, 2, "fdbeca"),  // transverse
            (8, 3, 2, "bdface"),  // rotate 90° counter-clockwise
        ]
    )
    func orientations(orientation: Int, width: Int, height: Int, labels: String) {
        let expected = Self.image(width: width, height: height, labels: labels)

        let oriented = Self.labelled.oriented(exifOrientation: orientation)

        #expect(oriented == expected)
    }

    @Test("orientation values outside 1–8 leave the image unchanged", arguments: [0, -1, 9, 100])
    func unknownOrientation(orientation: Int) {
        #expect(Self.labelled.oriented(exifOrientation: orientation) == Self.labelled)
    }

    @Test("rotating clockwise then counter-clockwise restores a non-square image")
    func rotationsInvert() {
        let source = TestImages.gradient(width: 37, height: 11)

        let restored = source.oriented(exifOrientation: 6).oriented(exifOrientation: 8)

        #expect(restored == source)
        #expect(source.oriented(exifOrientation: 6).width == 11)
    }

    @Test("cropped copies exactly the requested rectangle")
    func crop() {
        let source = Self.image(width: 3, height: 3, labels: "abcdefghi")

        let image = source.cropped(x: 1, y: 1, width: 2, height: 2)

        #expect(image == Self.image(width: 2, height: 2, labels: "efhi"))
    }

    @Test("cropped clips a rectangle that runs off the image")
    func cropClips() {
        let source = Self.image(width: 3, height: 3, labels: "abcdefghi")

        let image = source.cropped(x: -1, y: 2, width: 3, height: 5)

        #expect(image == Self.image(width: 2, height: 1, labels: "gh"))
    }

    @Test("centerSquare takes the middle of a landscape image and the middle of a portrait one")
    func centerSquare() {
        let landscape = Self.image(width: 4, height: 2, labels: "abcdefgh")
        let portrait = Self.image(width: 1, height: 3, labels: "xyz")

        #expect(landscape.centerSquare() == Self.image(width: 2, height: 2, labels: "bcfg"))
        #expect(portrait.centerSquare() == Self.image(width: 1, height: 1, labels: "y"))
    }
}
