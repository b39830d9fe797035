import ImageFixtures
import Imaging
import Testing

/// Link previews and the blurred stand-ins of warned stories.
struct PreviewTests {
    /// The mean difference between horizontally adjacent pixels: how much detail is left.
    static func detail(_ image: RGBImage) -> Double {
        var total = 0
        var count = 0
        for y in 0..<image.height {
            for x in 1..<image.width {
                let a = (y * image.width + x) * 3
                total += abs(Int(image.pixels[a]) - Int(image.pixels[a - 3]))
                count += 1
            }
        }
        return Double(total) / Double(max(1, count))
    }

    @Test("a link preview is exactly 1200 × 630, the photo fitted in the middle over a blurred copy of itself")
    func preview() throws {
        // A portrait checkerboard: sharp detail everywhere.
        let jpeg = try Imaging.encodeJPEG(TestImages.checker(width: 600, height: 800, cell: 8), quality: 90)
        let preview = try Imaging.decode(try Imaging.linkPreview(of: jpeg, blurred: false))
        #expect(preview.width == 1200 && preview.height == 630)
        // The middle (the photo, 473 wide) keeps its checkerboard; the sides (the backdrop) are smooth.
        let middle = preview.cropped(x: 500, y: 100, width: 200, height: 400)
        let side = preview.cropped(x: 0, y: 100, width: 200, height: 400)
        #expect(Self.detail(middle) > 40)
        #expect(Self.detail(side) < 2)
    }

    @Test("a blurred preview shows nothing of the photo's detail, only its colours")
    func blurredPreview() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.checker(width: 600, height: 800, cell: 8), quality: 90)
        let preview = try Imaging.decode(try Imaging.linkPreview(of: jpeg, blurred: true))
        #expect(preview.width == 1200 && preview.height == 630)
        #expect(Self.detail(preview) < 2)
    }

    @Test("a stand-in is a few pixels wide with the photo's shape, and blurred past recognition")
    func placeholder() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.checker(width: 900, height: 1200, cell: 6), quality: 90)
        let standIn = try Imaging.blurredPlaceholder(of: jpeg)
        #expect(standIn.width == 48 && standIn.height == 64)
        #expect(Self.detail(try Imaging.decode(standIn.jpeg)) < 6)
        // A gradient keeps its colours where they were: dark left, bright right.
        let gradient = try Imaging.encodeJPEG(TestImages.gradient(width: 400, height: 300), quality: 90)
        let soft = try Imaging.decode(try Imaging.blurredPlaceholder(of: gradient).jpeg)
        let left = soft.pixels[(soft.height / 2 * soft.width + 2) * 3]
        let right = soft.pixels[(soft.height / 2 * soft.width + soft.width - 3) * 3]
        #expect(Int(right) - Int(left) > 80)
    }

    @Test("cover-cropping fills the size exactly, from the centre")
    func cover() {
        let image = RGBImage(width: 300, height: 100, red: 10, green: 20, blue: 30)
        let covered = image.coverCropped(width: 120, height: 120)
        #expect(covered.width == 120 && covered.height == 120)
        #expect(covered.pixels[0] == 10 && covered.pixels[1] == 20)
    }
}
