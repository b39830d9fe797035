import Foundation

// JPEG fixtures that libturbojpeg cannot produce from RGB pixels: CMYK (as Pillow writes it), YCCK (as Adobe
// applications write it), progressive and grayscale. Generated once with Pillow 13.0.0 and libturbojpeg 2.1.5 by the
// script below, then embedded as base64 so the test target needs no resource declarations.
//
// Images: `cmykJPEG` and `ycckJPEG` are 48×32, six 16×16 ink patches (3 across, 2 down) with CMYK inks
// (0,0,0,0) (255,0,0,0) (0,255,255,0) (0,0,0,128) (255,255,0,0) (64,128,0,32), stored with Adobe's inverted samples.
// `progressiveJPEG` is 64×48 with pixel (x, y) = (4x, 5y, 128); `grayJPEG` is that image converted to luma ("L").
//
// # Generates the JPEG fixtures libturbojpeg's encoder cannot make from RGB (Pillow 13.0.0, libturbojpeg 2.1.5).
// import base64, ctypes, io
// from PIL import Image
//
// # Six 16x16 CMYK ink patches in a 48x32 image (3 across, 2 down), ink values 0-255.
// PATCHES = [(0, 0, 0, 0), (255, 0, 0, 0), (0, 255, 255, 0), (0, 0, 0, 128), (255, 255, 0, 0), (64, 128, 0, 32)]
//
// def cmyk_image():
//     img = Image.new("CMYK", (48, 32))
//     for i, ink in enumerate(PATCHES):
//         x0, y0 = (i % 3) * 16, (i // 3) * 16
//         for y in range(y0, y0 + 16):
//             for x in range(x0, x0 + 16):
//                 img.putpixel((x, y), ink)
//     return img
//
// def pillow_jpeg(img, **options):
//     out = io.BytesIO()
//     img.save(out, "JPEG", **options)
//     return out.getvalue()
//
// def turbojpeg_ycck(img):
//     # tjCompress2 with TJPF_CMYK writes YCCK with an Adobe APP14 marker; feed Adobe's inverted samples.
//     tj = ctypes.CDLL("libturbojpeg.so.0")
//     tj.tjInitCompress.restype = ctypes.c_void_p
//     w, h = img.size
//     src = bytes(255 - v for px in img.get_flattened_data() for v in px)
//     buf, size = ctypes.POINTER(ctypes.c_ubyte)(), ctypes.c_ulong(0)
//     handle = ctypes.c_void_p(tj.tjInitCompress())
//     TJPF_CMYK, TJSAMP_420 = 11, 2
//     assert tj.tjCompress2(handle, src, w, w * 4, h, TJPF_CMYK, ctypes.byref(buf), ctypes.byref(size),
//                           TJSAMP_420, 95, 0) == 0
//     data = ctypes.string_at(buf, size.value)
//     tj.tjFree(buf); tj.tjDestroy(handle)
//     return data
//
// def gradient(mode, w, h):
//     img = Image.new("RGB", (w, h))
//     img.putdata([(x * 4, y * 5, 128) for y in range(h) for x in range(w)])
//     return img if mode == "RGB" else img.convert(mode)
//
// fixtures = {
//     "cmykJPEG": pillow_jpeg(cmyk_image(), quality=95),  # plain CMYK, Adobe transform 0, inverted samples
//     "ycckJPEG": turbojpeg_ycck(cmyk_image()),
//     "progressiveJPEG": pillow_jpeg(gradient("RGB", 64, 48), quality=95, progressive=True),
//     "grayJPEG": pillow_jpeg(gradient("L", 64, 48), quality=95),
// }
// for name, data in fixtures.items():
//     print(f'    static let {name} = bytes("{base64.b64encode(data).decode()}")  // {len(data)} bytes')

enum JPEGFixtures {
    static let cmykJPEG = bytes(
        "/9j/7gAOQWRvYmUAZAAAAAAA/9sAQwACAQEBAQECAQEBAgICAgIEAwICAgIFBAQDBAYFBgYGBQYGBgcJCAYHCQcGBggLCAkKCgoKCgYICwwLCgwJCgoK/8AAFAgAIAAwBEMRAE0RAFkRAEsRAP/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/aAA4EQwBNAFkASwAAPwD9/K/fyv38r9/KKKKK/gDooooooor+/wAr+AOv4A6KKKKKK/v8r+/yiiiiiv4A6KKKKKKK/v8AK/gDr+AOiiiiiiv7/K/v8r+f+iiiiv4A6/gDor+gCiiiiv6/K/fyivn+iiiiv0Ar+gCivx/oooor+AOv4A6K/oAoooor+vyv38or5/oooor/2Q=="
    )  // 478 bytes
    static let ycckJPEG = bytes(
        "/9j/7gAOQWRvYmUAZAAAAAAC/9sAQwACAQEBAQECAQEBAgICAgIEAwICAgIFBAQDBAYFBgYGBQYGBgcJCAYHCQcGBggLCAkKCgoKCgYICwwLCgwJCgoK/9sAQwECAgICAgIFAwMFCgcGBwoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoK/8AAFAgAIAAwBAEiAAIRAQMRAQQiAP/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/EAB8BAAMBAQEBAQEBAQEAAAAAAAABAgMEBQYHCAkKC//EALURAAIBAgQEAwQHBQQEAAECdwABAgMRBAUhMQYSQVEHYXETIjKBCBRCkaGxwQkjM1LwFWJy0QoWJDThJfEXGBkaJicoKSo1Njc4OTpDREVGR0hJSlNUVVZXWFlaY2RlZmdoaWpzdHV2d3h5eoKDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uLj5OXm5+jp6vLz9PX29/j5+v/aAA4EAQACEQMRBAAAPwD+f+iiigD9/KKKK/TCiiiv5TP9/Aooor9nKKKK/wBWD/gDCiiiv5M6KKK/lM/6AD+f+iiiv7iKKKK/5/z9UP6AKKKK/nvooor/AEsP5TPn+iiiv//Z"
    )  // 711 bytes
    static let progressiveJPEG = bytes(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wgARCAAwAEADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABQcI/8QAFwEBAQEBAAAAAAAAAAAAAAAABQcECf/aAAwDAQACEAMQAAABxym4nXSA03EyaAGm4oTQA03EyqBKE3E9nP0NNxMmgBpuJlUARNxMmgShNxPZz7DTcTJoAabiZNAETbUKoP8A/8QAFhAAAwAAAAAAAAAAAAAAAAAAAAME/9oACAEBAAEFAlRCohUQqIVEKiFRCohUQqIVEKiFRCohUQqIVEKiFRCohUQqIVEKiFRCohUQqIVEKiFRCohUQqIVEKiFRCohUQqIVEKiFRCohUQqIVEKiP/EABcRAQEBAQAAAAAAAAAAAAAAAAUAMSH/2gAIAQMBAT8BNTzsannY1POxqedjU8jU8jU8jU8jU87Gp52NTzsannb/xAAWEQADAAAAAAAAAAAAAAAAAAAAAwT/2gAIAQIBAT8BdeOvHXjrx1468deOvHXjrx1468//xAAVEAEBAAAAAAAAAAAAAAAAAAAAMf/aAAgBAQAGPwKIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIj/xAAWEAEBAQAAAAAAAAAAAAAAAAAxECD/2gAIAQEAAT8hLPX8p5Tyz/vKeU8r/KeU8s9fynlPLP8AuKeWev5T/wD/2gAMAwEAAgADAAAAEAf+wwNvAAd/yv/EABcRAQEBAQAAAAAAAAAAAAAAAAABUSD/2gAIAQMBAT8QkJCQkNjY2NnMREf/xAAXEQEBAQEAAAAAAAAAAAAAAAAAYSEx/9oACAECAQE/EKKOmqOmqKLKKOmqP//EABwQAAICAwEBAAAAAAAAAAAAAAABIWExUbFBwf/aAAgBAQABPxDK4MC5JVtRAtKJFtRC3ijAuDK4MC4JW9UQLSiRbUQrSiRfBlcGBcGVwQJcEreqIFpRItqIW8USJcGVwYFwZXBgXJKtqIFpRItqIW8UYFwZXBgXBK3qiBaUSLaiFaUYFyZXBgXBlcGBckqfqiBaUSLaiFvFEiXB/9k="
    )  // 935 bytes
    static let grayJPEG = bytes(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/wAALCAAwAEABAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/APxz0nwV90+T+ldNpPgnoPK/Sun0nwVyP3PX2rptJ8E8D9z09q6bSfBPI/c9faum0nwVwp8np7V0+k+Ceg8n9K6bSfBX3T5P6V8o6T4J6Dyf0rptJ8FcqfJ6+1dPpPgngfuentXTaT4J5H7nr7V02k+CuB+56e1dPpPgnkfuf0rptJ8FfdPk/pXTaT4J6Dyf0r5R0nwV90+T+ldNpPgngDyf0rp9J8FcqfJ6+1dNpPgngfuentXTaT4J5H7nr7V02k+CuFPk9Paun0nwTyB5P6V02k+Cvunyf0r5R0nwT0Hk/pXTaT4K+6fJ/Sum0nwT0HlfpXT6T4K5H7nr7V02k+CeB+56e1dNpPgnkfuevtXT6T4K4U+T09q6bSfBPQeT+lfKOk+Cvunyf0rptJ8E9B5P6V0+k+CuVPk9faum0nwTwP3PT2rptJ8E8j9z19q6bSfBXA/c9Paun0nwT0HlfpXTaT4K+6fJ/SvlHSfBPQeT+ldNpPgr7p8n9K6bSfBPQeV+ldPpPgrkHyevtXTaT4J4H7np7V02k+CeR+56+1dNpPgrhT5PT2rp9J8E8geT+lf/2Q=="
    )  // 763 bytes

    private static func bytes(_ base64: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: base64)!)
    }
}
