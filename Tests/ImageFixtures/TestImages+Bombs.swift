import Imaging

extension TestImages {
    /// A real HEIC whose `ispe` box is patched to claim another size; its coded data cannot decode at that size,
    /// so a `.tooLarge` refusal (not `.corrupt`) shows it came from the header.
    public static func heic(claiming width: Int, _ height: Int) throws -> [UInt8] {
        let fixtures = try FixtureDirectory()
        try fixtures.write("in.png", png(gradient(width: 64, height: 48)))
        try fixtures.run("heif-enc", ["-q", "50", "in.png", "-o", "out.heic"])
        var heic = try fixtures.read("out.heic")
        // heif-enc writes a grid item whose `ispe` (the last one) is the primary image's size.
        guard let ispe = heic.indices.last(where: { heic[$0...].starts(with: Array("ispe".utf8)) }) else {
            throw FixtureDirectory.ToolFailure(description: "heif-enc wrote no ispe box")
        }
        heic.replaceSubrange(ispe + 8..<ispe + 16, with: PNGBuilder.bigEndian(width) + PNGBuilder.bigEndian(height))
        return heic
    }
}
