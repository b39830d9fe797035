#ifndef GRAIN_CPNG_H
#define GRAIN_CPNG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <png.h>

/// libpng's low-level reader behind functions that never longjmp into Swift: libpng reports errors by longjmp,
/// which Swift frames must not be unwound by, so every call that can fail sets its own setjmp here and returns a
/// status instead. Rows come out one at a time as 8-bit RGB or RGBA, so a caller can resample a PNG without ever
/// holding it whole (interlaced files are the exception: Adam7 needs the whole image, which is read on start).
typedef struct grain_png grain_png;

/// What `png_read_info` found before the first IDAT.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// 1 when the output rows are RGBA (an alpha channel or a tRNS chunk), 0 for RGB.
    int has_alpha;
    int interlaced;
    /// The decompressed iCCP profile, or NULL; owned by the reader.
    const uint8_t *icc;
    uint32_t icc_length;
    /// The eXIf chunk's TIFF block, or NULL; owned by the reader.
    const uint8_t *exif;
    uint32_t exif_length;
} grain_png_header;

/// Takes ownership of `file` (closed by grain_png_close). NULL only when memory runs out.
grain_png *grain_png_open(FILE *file, uint32_t max_width, uint32_t max_height, size_t max_chunk_bytes);
/// Reads the signature and every chunk up to the image data. 0 on success.
int grain_png_read_header(grain_png *reader, grain_png_header *header);
/// Sets up 8-bit RGB(A) output; for an interlaced file decodes the whole image. 0 on success.
int grain_png_start(grain_png *reader);
/// Writes the next row (width * 3 or * 4 bytes) into `row`. 0 on success.
int grain_png_read_row(grain_png *reader, uint8_t *row);
/// The last error message (empty if none).
const char *grain_png_message(const grain_png *reader);
void grain_png_close(grain_png *reader);

#endif
