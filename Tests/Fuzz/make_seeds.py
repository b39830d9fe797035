#!/usr/bin/env python3
"""Writes the seed corpora in Tests/Fuzz/Corpus/ (the committed files are its output).

Text seeds are written from the literals below. JPEG, PNG and WebP seeds need Pillow (python3 -m pip install
pillow), HEIC and AVIF seeds Debian's heif-enc and avifenc (libheif-examples, libavif-bin). EXIF blocks and the
Display P3 profile are built here byte by byte (TIFF 6.0 / EXIF, ICC.1), so the seeds do not depend on how a
library writes them. Re-running rewrites the same files (Pillow's output is deterministic for a given version).
Usage: python3 Tests/Fuzz/make_seeds.py
"""

import io
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "Corpus")


def write(target, name, data):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


# --- EXIF (TIFF) blocks -------------------------------------------------------------------------------------

TYPE_SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 129: 1}


def tiff(ifds, little=True, sub=None):
    """A TIFF block. `ifds` is IFD0's entries: (tag, type, values). `sub` maps a pointer tag (0x8769, 0x8825) to
    the entries of that sub-IFD, written after IFD0 with out-of-line values after each IFD."""
    e = "<" if little else ">"
    sub = sub or {}

    def pack(typ, values):
        if typ in (1, 7):
            return bytes(values)
        if typ in (2, 129):
            return values
        if typ == 3:
            return b"".join(struct.pack(e + "H", v) for v in values)
        if typ == 4:
            return b"".join(struct.pack(e + "I", v) for v in values)
        if typ == 5:
            return b"".join(struct.pack(e + "II", n, d) for n, d in values)
        raise ValueError(typ)

    def count(typ, values):
        return len(values)

    def layout(entries, offset):
        """Returns the IFD bytes placed at `offset` followed by its out-of-line values."""
        table = 2 + 12 * len(entries) + 4
        extra = b""
        rows = b""
        for tag, typ, values in entries:
            raw = pack(typ, values)
            n = count(typ, values)
            if len(raw) <= 4:
                field = raw.ljust(4, b"\0")
            else:
                field = struct.pack(e + "I", offset + table + len(extra))
                extra += raw + (b"\0" if len(raw) % 2 else b"")
            rows += struct.pack(e + "HHI", tag, typ, n) + field
        return struct.pack(e + "H", len(entries)) + rows + struct.pack(e + "I", 0) + extra

    header = (b"II" if little else b"MM") + struct.pack(e + "HI", 42, 8)
    first = list(ifds) + [(tag, 4, [0]) for tag in sorted(sub)]
    size0 = len(layout(first, 8))
    offsets = {}
    position = 8 + size0
    blocks = b""
    for tag in sorted(sub):
        offsets[tag] = position
        block = layout(sub[tag], position)
        blocks += block
        position += len(block)
    first = list(ifds) + [(tag, 4, [offsets[tag]]) for tag in sorted(sub)]
    return header + layout(first, 8) + blocks


def camera_tiff(little=True):
    return tiff(
        [
            (0x010F, 2, b"Grain\0"),
            (0x0110, 2, b"Fuzz Camera 1\0"),
            (0x0112, 3, [6]),
        ],
        little,
        sub={
            0x8769: [(0x9003, 2, b"2024:05:01 13:45:10\0")],
            0x8825: [
                (1, 2, b"S\0"),
                (2, 5, [(33, 1), (30, 1), (0, 100)]),
                (3, 2, b"E\0"),
                (4, 5, [(151, 1), (15, 1), (0, 100)]),
            ],
        },
    )


def looping_tiff():
    """IFD0's Exif pointer points back at IFD0 itself."""
    e = "<"
    entries = [(0x0112, 3, 1, struct.pack(e + "H", 3) + b"\0\0"), (0x8769, 4, 1, struct.pack(e + "I", 8))]
    body = struct.pack(e + "H", len(entries))
    for tag, typ, n, field in entries:
        body += struct.pack(e + "HHI", tag, typ, n) + field
    return b"II" + struct.pack(e + "HI", 42, 8) + body + struct.pack(e + "I", 0)


def jpeg_with_exif(jpeg, block):
    payload = b"Exif\0\0" + block
    segment = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    return jpeg[:2] + segment + jpeg[2:]


def png_with_exif(png, block):
    import zlib

    chunk = struct.pack(">I", len(block)) + b"eXIf" + block
    chunk += struct.pack(">I", zlib.crc32(chunk[4:]) & 0xFFFFFFFF)
    # After IHDR (8-byte signature + 25-byte IHDR chunk).
    return png[:33] + chunk + png[33:]


# --- ICC ----------------------------------------------------------------------------------------------------


def display_p3_icc():
    """A minimal ICC v2 display profile for Display P3 (D50-adapted colorants, the sRGB curve as 'para' type 3),
    written from ICC.1:2001-04; the colorant values are Display P3's, rounded."""

    def s15(values):
        return b"".join(struct.pack(">i", round(v * 65536)) for v in values)

    curve = b"para" + b"\0" * 4 + struct.pack(">HH", 3, 0) + s15([2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
    text = b"Display P3 (seed)\0"
    desc = b"desc" + b"\0" * 4 + struct.pack(">I", len(text)) + text + b"\0" * 8 + b"\0" * 3 + b"\0" * 67
    tags = [
        (b"desc", desc),
        (b"wtpt", b"XYZ " + b"\0" * 4 + s15([0.9642, 1.0, 0.8249])),
        (b"rXYZ", b"XYZ " + b"\0" * 4 + s15([0.5151, 0.2412, -0.0011])),
        (b"gXYZ", b"XYZ " + b"\0" * 4 + s15([0.2920, 0.6922, 0.0419])),
        (b"bXYZ", b"XYZ " + b"\0" * 4 + s15([0.1571, 0.0666, 0.7841])),
        (b"rTRC", curve),
        (b"gTRC", curve),
        (b"bTRC", curve),
    ]
    start = 128 + 4 + 12 * len(tags)
    table, data = struct.pack(">I", len(tags)), b""
    for signature, body in tags:
        table += signature + struct.pack(">II", start + len(data), len(body))
        data += body + b"\0" * (-len(body) % 4)
    header = struct.pack(">I", start + len(data)) + b"lcms" + bytes([2, 0x10, 0, 0]) + b"mntrRGB XYZ " + b"\0" * 12
    header += b"acsp" + b"\0" * 24 + struct.pack(">I", 0) + s15([0.9642, 1.0, 0.8249])
    header += b"\0" * (128 - len(header))
    return header + table + data


# --- Images -------------------------------------------------------------------------------------------------


def images():
    from PIL import Image

    def gradient(mode, size):
        image = Image.new("RGB", size)
        image.putdata([((x * 37) % 256, (y * 53) % 256, ((x + y) * 11) % 256) for y in range(size[1]) for x in range(size[0])])
        return image.convert(mode)

    def save(image, fmt, **options):
        out = io.BytesIO()
        image.save(out, fmt, **options)
        return out.getvalue()

    rgb = gradient("RGB", (8, 8))
    return {
        "baseline-8x8.jpg": save(rgb, "JPEG", quality=75),
        "gray-16x8.jpg": save(gradient("L", (16, 8)), "JPEG", quality=50),
        "progressive-12x10.jpg": save(gradient("RGB", (12, 10)), "JPEG", quality=60, progressive=True),
        "subsampled-17x13.jpg": save(gradient("RGB", (17, 13)), "JPEG", quality=40, subsampling=2),
        "cmyk-8x8.jpg": save(gradient("CMYK", (8, 8)), "JPEG", quality=70),
        "restart-16x16.jpg": save(gradient("RGB", (16, 16)), "JPEG", quality=50, restart_marker_blocks=1),
        "rgb-4x3.png": save(gradient("RGB", (4, 3)), "PNG"),
        "rgba-3x3.png": save(gradient("RGB", (3, 3)).convert("RGBA"), "PNG"),
        "palette-5x2.png": save(gradient("RGB", (5, 2)).convert("P"), "PNG"),
        "p3-9x7.jpg": save(gradient("RGB", (9, 7)), "JPEG", quality=80, icc_profile=display_p3_icc()),
        "p3-6x5.png": save(gradient("RGB", (6, 5)), "PNG", icc_profile=display_p3_icc()),
    }


def webp_images():
    """WebP seeds: lossy, lossless with alpha, and an extended file with ICCP and EXIF chunks."""
    from PIL import Image

    def save(image, **options):
        out = io.BytesIO()
        image.save(out, "WEBP", **options)
        return out.getvalue()

    rgb = Image.new("RGB", (12, 9))
    rgb.putdata([((x * 21) % 256, (y * 29) % 256, ((x + y) * 13) % 256) for y in range(9) for x in range(12)])
    rgba = rgb.convert("RGBA")
    rgba.putalpha(Image.linear_gradient("L").resize((12, 9)))
    exif = b"Exif\0\0" + camera_tiff(True)
    return {
        "lossy-12x9.webp": save(rgb, quality=60),
        "lossless-alpha-12x9.webp": save(rgba, lossless=True),
        "icc-exif-12x9.webp": save(rgb, quality=70, icc_profile=display_p3_icc(), exif=exif),
    }


def heif_images(png):
    """HEIC and AVIF seeds from Debian's encoders (libheif-examples, libavif-bin), when they are installed."""
    import shutil
    import subprocess
    import tempfile

    seeds = {}
    with tempfile.TemporaryDirectory() as work:
        source = os.path.join(work, "in.png")
        with open(source, "wb") as f:
            f.write(png)
        tiff = os.path.join(work, "exif.bin")
        with open(tiff, "wb") as f:
            f.write(camera_tiff(False))
        icc = os.path.join(work, "p3.icc")
        with open(icc, "wb") as f:
            f.write(display_p3_icc())
        runs = {
            "plain-12x9.heic": ["heif-enc", "-q", "30", source, "-o", os.path.join(work, "out")],
            "plain-12x9.avif": ["avifenc", "-s", "10", "--min", "30", "--max", "40", source, os.path.join(work, "out.avif")],
            "irot-exif-icc-12x9.avif": ["avifenc", "-s", "10", "--min", "30", "--max", "40", "--irot", "1", "--imir", "0",
                                        "--exif", tiff, "--icc", icc, source, os.path.join(work, "out.avif")],
            "nclx-p3-12x9.avif": ["avifenc", "-s", "10", "--min", "30", "--max", "40", "--cicp", "12/13/6", source,
                                  os.path.join(work, "out.avif")],
        }
        for name, command in runs.items():
            if shutil.which(command[0]) is None:
                print("%s is not installed: skipping %s" % (command[0], name))
                continue
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            out = command[-1] if command[0] == "avifenc" else os.path.join(work, "out")
            with open(out, "rb") as f:
                seeds[name] = f.read()
            os.remove(out)
    return seeds


def flat_png(width, height, rgb):
    """A PNG of one colour, deflated row by row (an 8192x8192 one is a few hundred KB)."""
    import zlib

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    deflate = zlib.compressobj(9)
    row = b"\0" + bytes(rgb) * width
    idat = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def replace_ispe(data, size, replacement):
    """Every ispe box (a full box: version and flags, then 32-bit width and height) saying `size` says `replacement`."""
    data = bytearray(data)
    old, new = struct.pack(">II", *size), struct.pack(">II", *replacement)
    at = data.find(b"ispe")
    while at >= 0:
        if data[at + 8:at + 16] == old:
            data[at + 8:at + 16] = new
        at = data.find(b"ispe", at + 4)
    return bytes(data)


def heif_bombs():
    """Decompression bombs (issue 25, N1): flat pictures coded large, whose ispe boxes then claim 64x64; and
    1x1 grids (heif-enc writes one for an odd size, its tile a pixel larger) whose tile, or whose own
    description, is larger than its ispe. Made like Tests/ImageFixtures/TestImages+CodedBombs.swift."""
    import shutil
    import subprocess
    import tempfile

    seeds = {}
    with tempfile.TemporaryDirectory() as work:
        def encode(tool, side, rgb):
            source = os.path.join(work, "in.png")
            with open(source, "wb") as f:
                f.write(flat_png(side, side, rgb))
            out = os.path.join(work, "out.avif" if tool == "avifenc" else "out.heic")
            if tool == "avifenc":
                command = ["avifenc", "-s", "10", "--min", "40", "--max", "63", source, out]
            else:
                command = ["heif-enc", "-q", "10", "-p", "preset=ultrafast", source, "-o", out]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            with open(out, "rb") as f:
                return f.read()

        if shutil.which("heif-enc"):
            seeds["bomb-4096-claims-64.heic"] = replace_ispe(encode("heif-enc", 4096, (200, 100, 50)), (4096, 4096), (64, 64))
            grid = encode("heif-enc", 2047, (20, 150, 50))
            tile = replace_ispe(replace_ispe(grid, (2048, 2048), (64, 64)), (2047, 2047), (63, 63))
            idat = tile.find(b"idat")
            # The grid's description in idat: version, flags, rows - 1, columns - 1, 16-bit width and height.
            tile = tile[:idat + 8] + struct.pack(">HH", 63, 63) + tile[idat + 12:]
            seeds["bomb-grid-tile-2048-claims-64.heic"] = tile
            seeds["bomb-grid-2047-claims-64.heic"] = replace_ispe(grid, (2047, 2047), (64, 64))
        else:
            print("heif-enc is not installed: skipping the HEIC bombs")
        if shutil.which("avifenc"):
            seeds["bomb-8192-claims-64.avif"] = replace_ispe(encode("avifenc", 8192, (200, 100, 50)), (8192, 8192), (64, 64))
        else:
            print("avifenc is not installed: skipping the AVIF bomb")
    return seeds


def main():
    # Multipart: the first line is the Content-Type, the rest the body.
    crlf = "\r\n"
    write("FuzzMultipart", "text-field", "multipart/form-data; boundary=XyZ\n" + crlf.join([
        "--XyZ", 'Content-Disposition: form-data; name="caption"', "", "Hello, world", "--XyZ--", ""]))
    write("FuzzMultipart", "file-upload", "multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxk\n" + crlf.join([
        "------WebKitFormBoundary7MA4YWxk", 'Content-Disposition: form-data; name="csrf"', "", "t0k3n",
        "------WebKitFormBoundary7MA4YWxk",
        'Content-Disposition: form-data; name="photo"; filename="IMG_0001.JPG"', "Content-Type: image/JPEG", "",
        "\u00ff\u00d8\u00ff binary --WebKit \r\n-- almost",
        "------WebKitFormBoundary7MA4YWxk--", ""]))
    write("FuzzMultipart", "quoted-boundary-preamble", 'Multipart/Form-Data; charset=utf-8; boundary="a b:c"\n' + crlf.join([
        "preamble text", "--a b:c", 'content-disposition: form-data; name=plain', "", "",
        "--a b:c", 'Content-Disposition: form-data; name="empty"; filename=""', "", "x", "--a b:c--", "epilogue"]))
    write("FuzzMultipart", "unterminated", "multipart/form-data; boundary=B\n--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end")
    write("FuzzMultipart", "no-name", "multipart/form-data; boundary=B\n--B\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--")
    write("FuzzMultipart", "empty-form", "multipart/form-data; boundary=B\n--B--\r\n")
    write("FuzzMultipart", "unicode-names", "multipart/form-data; boundary=B\n" + crlf.join([
        "--B", 'Content-Disposition: form-data; name="caf\u00e9"; filename="\u00e9t\u00e9.jpg"', "", "\u2603",
        "--B--", ""]))
    write("FuzzMultipart", "structured", b"name\0value\0photo\0\xff\xd8\r\n--fuzz-boundary\0caption\0")

    # URL-encoded form bodies (and query strings).
    for name, body in {
        "simple": "a=1&b=2",
        "escapes": "csrf=abc%20def&caption=Hello+world%21&emoji=%F0%9F%98%80",
        "empty-pieces": "x&&y=&=z&",
        "malformed-escapes": "bad=%zz%4&trail=%&pct=%%41",
        "repeated": "tag=a&tag=b&tag=c",
        "raw-utf8": "name=Zo\u00eb&city=Krak\u00f3w&mark=e\u0301",
        "invalid-utf8": b"a=\xff\xfe&b=%C3%28",
    }.items():
        write("FuzzURLEncodedForm", name, body)

    # Cookie headers, one per line.
    for name, header in {
        "browser": "__Host-session=abc123; theme=\"dark\"; lang=en",
        "two-headers": "a=1; b=2\na=3; c=4",
        "malformed": "bad name=1; ok=2; =x; y; \tspaced\t=\t3\t; ctl=\x01",
        "quotes": "q=\"\"; r=\"x; s=\"a\"b\"; t=a\"",
        "unicode": "n=caf\u00e9; m=\u00e9t\u00e9; =; k=v=w",
    }.items():
        write("FuzzCookies", name, header)

    # HTML escaping: hostile and ordinary values.
    for name, value in {
        "script": "<script>alert(1)</script>",
        "attribute-breakout": "\" onmouseover=\"x' onfocus='y` z",
        "javascript-url": "javascript:alert(1)",
        "disguised-url": " \t\x01JaVa\nScRiPt:alert(1)",
        "data-url": "data:text/html,<b>x</b>",
        "allowed-url": "https://grain.social/?a=1&b=\"2\"#top",
        "mailto": "MAILTO:someone@example.com",
        "unicode": "caf\u00e9 \u2028 \u2029 \u2603 &lt;&amp;",
    }.items():
        write("FuzzHTMLEscaping", name, value)

    # AT Protocol identifiers; three lines are also an AT-URI's parts.
    for name, value in {
        "did-plc": "did:plc:ewvi7nxzyoun6zhxrhs64oiz",
        "did-web": "did:web:example.com%3A8080",
        "handle": "Alice.Bsky.Social",
        "nsid": "social.grain.story",
        "tid": "3jzfcijpj2z2a",
        "record-key": "self",
        "at-uri": "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/social.grain.story/3jzfcijpj2z2a",
        "at-uri-handle": "at://alice.example.com/app.bsky.feed.post/3k2la7ab2bc2d",
        "parts": "alice.example.com\nsocial.grain.story\nself",
        "parts-invalid": "did:plc:x:\nsocial.grain\n..",
    }.items():
        write("FuzzATProtoSyntax", name, value)

    # EXIF: bare TIFF blocks (the target wraps them) and whole files.
    write("FuzzExif", "tiff-little-endian", camera_tiff(True))
    write("FuzzExif", "tiff-big-endian", camera_tiff(False))
    write("FuzzExif", "tiff-loop", looping_tiff())
    write("FuzzExif", "tiff-utf8-north-west", tiff(
        [(0x010F, 129, "Z\u00e9iss  \0".encode()), (0x0112, 1, [8])],
        sub={0x8825: [(1, 2, b"N\0"), (2, 5, [(1, 1), (2, 1), (3, 1)]), (3, 2, b"W\0"), (4, 5, [(4, 1), (5, 1), (6, 1)])]},
    ))
    for name, data in heif_bombs().items():
        write("FuzzHEIF", name, data)
    try:
        pictures = images()
    except ImportError:
        print("Pillow is not installed: skipping the JPEG and PNG seeds")
        return
    for name, data in pictures.items():
        write("FuzzJPEG", name, data)
    write("FuzzJPEG", "truncated-8x8.jpg", pictures["baseline-8x8.jpg"][:-40])
    write("FuzzExif", "camera.jpg", jpeg_with_exif(pictures["baseline-8x8.jpg"], camera_tiff(True)))
    write("FuzzExif", "camera.png", png_with_exif(pictures["rgb-4x3.png"], camera_tiff(False)))
    write("FuzzJPEG", "exif-8x8.jpg", jpeg_with_exif(pictures["baseline-8x8.jpg"], camera_tiff(True)))
    for name, data in webp_images().items():
        write("FuzzWebP", name, data)
    write("FuzzWebP", "truncated-12x9.webp", webp_images()["icc-exif-12x9.webp"][:-30])
    from PIL import Image

    source = Image.new("RGB", (12, 9))
    source.putdata([((x * 21) % 256, (y * 29) % 256, ((x + y) * 13) % 256) for y in range(9) for x in range(12)])
    out = io.BytesIO()
    source.save(out, "PNG")
    heif = heif_images(out.getvalue())
    for name, data in heif.items():
        write("FuzzHEIF", name, data)
    if "plain-12x9.heic" in heif:
        write("FuzzHEIF", "truncated-12x9.heic", heif["plain-12x9.heic"][:-60])


if __name__ == "__main__":
    main()
