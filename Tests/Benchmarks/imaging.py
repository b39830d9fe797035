#!/usr/bin/env python3
"""The upload pipeline side by side: grain-stories against pyvips and Pillow, in one run.

Every tool does the same job on the same file: fit inside 2000 x 2000 (never enlarging), upright (EXIF
orientation), in sRGB (embedded profile converted), no metadata, baseline JPEG of at most 900,000 bytes at the
highest quality that fits, found by trying quality 92 and then a binary search over 40..91 (grain-stories
chooses its own way to find that quality; the others use the plain binary search).

  imaging.py inputs DIR PHOTOS   writes the test inputs into DIR (from the demo photos in PHOTOS), once
  imaging.py vips IN OUT         the pyvips pipeline (thumbnail + jpegsave), one file
  imaging.py pillow IN OUT       the Pillow pipeline (draft + LANCZOS via thumbnail), one file
  imaging.py measure DIR BIN [RUNS]
                                 runs each tool RUNS times (default 7) on each input and on an 8x8 image of the
                                 same format, and prints a Markdown table: work time = median(whole process) minus
                                 median(same tool on the 8x8 image); peak RSS of the process (wait4's ru_maxrss)

pyvips (with the pyvips-binary wheel, libvips 8.18), Pillow and pillow-heif come from PyPI (`make bench-python`).
pyvips-binary's libheif decodes AVIF but not HEVC, so for HEIC pyvips runs on Debian's libvips 8.14 (libvips42,
with libde265) in ABI mode.
"""
import io
import os
import random
import statistics
import subprocess
import sys
import time

MAX_EDGE = 2000
MAX_BYTES = 900_000
TOP_QUALITY = 92
LOW_QUALITY = 40

INPUTS = [
    ("12 MP phone JPEG (4032x3024)", "photo-12mp.jpg"),
    ("48 MP phone JPEG (8064x6048)", "photo-48mp.jpg"),
    ("12 MP HEIC (4032x3024)", "photo-12mp.heic"),
    ("PNG screenshot (2880x1800)", "screenshot.png"),
]
TINY = {".jpg": "tiny.jpg", ".heic": "tiny.heic", ".png": "tiny.png"}


def search(encode):
    """The highest quality whose encoding fits: 92 first, then a binary search over 40..91."""
    top = encode(TOP_QUALITY)
    if len(top) <= MAX_BYTES:
        return top
    best, low, high = None, LOW_QUALITY, TOP_QUALITY - 1
    while low <= high:
        quality = (low + high) // 2
        data = encode(quality)
        if len(data) <= MAX_BYTES:
            best, low = data, quality + 1
        else:
            high = quality - 1
    if best is None:
        raise SystemExit("does not fit at quality %d" % LOW_QUALITY)
    return best


def run_vips(source, target):
    if source.endswith(".heic"):
        # pyvips-binary's libheif has no HEVC decoder: use Debian's libvips (with libde265) in pyvips' ABI mode.
        sys.modules["_libvips"] = None
    import pyvips

    # thumbnail: shrink-on-load (JPEG DCT scaling), autorotate, and, when the file has a profile, import it and
    # export sRGB (asked of a file without one, libvips transforms sRGB to sRGB at great cost).
    tagged = pyvips.Image.new_from_file(source).get_typeof("icc-profile-data") != 0
    colour = {"export_profile": "srgb"} if tagged else {}
    image = pyvips.Image.thumbnail(source, MAX_EDGE, height=MAX_EDGE, size="down", **colour)
    if image.hasalpha():
        image = image.flatten(background=[255, 255, 255])
    # Rendered once: thumbnail reads its input sequentially, so a second save would have to decode again.
    image = image.copy_memory()
    strip = {"keep": "none"} if (pyvips.version(0), pyvips.version(1)) >= (8, 15) else {"strip": True}
    data = search(lambda q: image.jpegsave_buffer(Q=q, **strip))
    with open(target, "wb") as f:
        f.write(data)


def run_pillow(source, target):
    from PIL import Image, ImageCms, ImageOps

    if source.endswith(".heic"):
        import pillow_heif

        pillow_heif.register_heif_opener()
    image = Image.open(source)
    # thumbnail: draft (JPEG DCT scaling) to the smallest scale still at least the target, reduce, then LANCZOS.
    image.thumbnail((MAX_EDGE, MAX_EDGE), Image.LANCZOS)
    image = ImageOps.exif_transpose(image)
    profile = image.info.get("icc_profile")
    if image.mode in ("RGBA", "LA", "P"):
        image = image.convert("RGBA")
        white = Image.new("RGB", image.size, (255, 255, 255))
        white.paste(image, mask=image.getchannel("A"))
        image = white
    image = image.convert("RGB")
    if profile:
        source_profile = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        image = ImageCms.profileToProfile(image, source_profile, ImageCms.createProfile("sRGB"), outputMode="RGB")

    def encode(quality):
        out = io.BytesIO()
        image.save(out, "JPEG", quality=quality)
        return out.getvalue()

    with open(target, "wb") as f:
        f.write(search(encode))


# --- Inputs ---------------------------------------------------------------------------------------------------


def photo_like(base, size, seed):
    """`base` enlarged to `size` with fine and coarse noise, so it compresses like a detailed phone photo."""
    from PIL import Image, ImageChops

    random.seed(seed)
    image = base.convert("RGB").resize(size, Image.BICUBIC)
    fine = Image.merge("RGB", [Image.effect_noise(size, 14) for _ in range(3)])
    coarse_size = (size[0] // 4, size[1] // 4)
    coarse = Image.merge("RGB", [Image.effect_noise(coarse_size, 20) for _ in range(3)]).resize(size, Image.BICUBIC)
    image = ImageChops.add(image, fine, scale=1.0, offset=-128)
    return ImageChops.add(image, coarse, scale=1.0, offset=-128)


def screenshot(photo, size):
    """A desktop screenshot: flat panels, many lines of text, one photo."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", size, (246, 247, 249))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=22)
    draw.rectangle([0, 0, size[0], 64], fill=(32, 36, 48))
    draw.rectangle([0, 64, 360, size[1]], fill=(230, 232, 236))
    rng = random.Random(3)
    words = "grain stories photo place camera upload story household morning light lisbon river".split()
    for y in range(100, size[1] - 40, 34):
        line = " ".join(rng.choice(words) for _ in range(rng.randint(4, 14)))
        draw.text((400, y), line, fill=(40, 40, 40), font=font)
        if y < size[1] - 200:
            draw.text((24, y), rng.choice(words).title(), fill=(70, 70, 90), font=font)
    image.paste(photo.convert("RGB").resize((960, 720)), (size[0] - 1020, 160))
    return image


def make_inputs(directory, photos):
    from PIL import Image

    os.makedirs(directory, exist_ok=True)
    done = os.path.join(directory, ".complete")
    if os.path.exists(done):
        return
    chelsea = Image.open(os.path.join(photos, "chelsea.png"))
    coffee = Image.open(os.path.join(photos, "coffee.png"))
    photo_like(chelsea, (4032, 3024), 1).save(os.path.join(directory, "photo-12mp.jpg"), quality=92)
    photo_like(coffee, (8064, 6048), 2).save(os.path.join(directory, "photo-48mp.jpg"), quality=90)
    photo_like(chelsea, (4032, 3024), 1).save(os.path.join(directory, "heic-source.png"))
    screenshot(Image.open(os.path.join(photos, "astronaut.png")), (2880, 1800)).save(os.path.join(directory, "screenshot.png"))
    tiny = photo_like(coffee, (8, 8), 4)
    tiny.save(os.path.join(directory, "tiny.jpg"), quality=90)
    tiny.save(os.path.join(directory, "tiny.png"))
    for source, target in [("heic-source.png", "photo-12mp.heic"), ("tiny.png", "tiny.heic")]:
        subprocess.run(["heif-enc", "-q", "60", os.path.join(directory, source), "-o", os.path.join(directory, target)],
                       check=True, stdout=subprocess.DEVNULL)
    os.remove(os.path.join(directory, "heic-source.png"))
    open(done, "w").close()


# --- Measurement ----------------------------------------------------------------------------------------------


def timed(command):
    """Wall time in seconds and peak RSS in MiB of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit("failed: %s\n%s" % (" ".join(command), process.stderr.read().decode()))
    return elapsed, usage.ru_maxrss / 1024


def measure(directory, binary, runs):
    me = os.path.abspath(__file__)
    tools = [
        ("grain-stories", lambda i, o: [binary, "image", "process", i, o, "--max-bytes", str(MAX_BYTES)]),
        ("pyvips", lambda i, o: [sys.executable, me, "vips", i, o]),
        ("Pillow", lambda i, o: [sys.executable, me, "pillow", i, o]),
    ]
    out = os.path.join(directory, "out.jpg")
    results = {}
    for label, name in INPUTS:
        source = os.path.join(directory, name)
        tiny = os.path.join(directory, TINY[os.path.splitext(name)[1]])
        for tool, command in tools:
            whole, rss, base, sizes = [], [], [], []
            # Alternate the real and the 8x8 run so both see the same machine load.
            for _ in range(runs):
                elapsed, peak = timed(command(source, out))
                whole.append(elapsed)
                rss.append(peak)
                sizes.append(os.path.getsize(out))
                base.append(timed(command(tiny, out))[0])
            work = statistics.median(whole) - statistics.median(base)
            results[(label, tool)] = (work, max(rss), statistics.median(whole), statistics.median(base), max(sizes))
            print("  %-30s %-14s work %.3f s  (whole %.3f s, 8x8 %.3f s)  peak RSS %.0f MiB  %d bytes"
                  % (label, tool, work, statistics.median(whole), statistics.median(base), max(rss), max(sizes)),
                  file=sys.stderr)
    print("| Input | grain-stories work | pyvips work | Pillow work | ratio to pyvips | grain-stories peak RSS "
          "| pyvips peak RSS | Pillow peak RSS | output bytes (ours / vips / Pillow) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, _ in INPUTS:
        ours, vips, pil = (results[(label, t)] for t in ("grain-stories", "pyvips", "Pillow"))
        print("| %s | %.3f s | %.3f s | %.3f s | **%.2f** | %.0f MiB | %.0f MiB | %.0f MiB | %s / %s / %s |" % (
            label, ours[0], vips[0], pil[0], ours[0] / vips[0], ours[1], vips[1], pil[1],
            f"{ours[4]:,}", f"{vips[4]:,}", f"{pil[4]:,}"))


def main(arguments):
    if len(arguments) >= 3 and arguments[0] == "inputs":
        make_inputs(arguments[1], arguments[2])
    elif len(arguments) == 3 and arguments[0] == "vips":
        run_vips(arguments[1], arguments[2])
    elif len(arguments) == 3 and arguments[0] == "pillow":
        run_pillow(arguments[1], arguments[2])
    elif len(arguments) in (3, 4) and arguments[0] == "measure":
        measure(arguments[1], arguments[2], int(arguments[3]) if len(arguments) == 4 else 7)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
