#ifndef GRAIN_CJPEG_H
#define GRAIN_CJPEG_H

#include <stddef.h>
#include <stdint.h>

/// libjpeg's (libjpeg-turbo's) scanline decoder behind functions that never longjmp into Swift: libjpeg reports
/// errors by longjmp, so every call that can fail sets its own setjmp here and returns a status instead. Rows come
/// out one at a time as 8-bit RGB, DCT-scaled, so a caller can resample a JPEG while it is still being decoded.
/// Warnings (a truncated or damaged file) stop decoding like errors, and a progressive file may have at most
/// `max_scans` scans, as libturbojpeg's TJFLAG_STOPONWARNING and TJFLAG_LIMITSCANS do.
typedef struct grain_jpeg grain_jpeg;

/// Prepares to decode the `size` bytes at `data`, which must stay valid until grain_jpeg_close. NULL only when
/// memory runs out.
grain_jpeg *grain_jpeg_open(const uint8_t *data, size_t size, unsigned max_scans);
/// Reads the header and starts decoding at scale `scale_num / scale_denom`, as RGB. Refuses CMYK and YCCK
/// files. 0 on success, with the output size in `width` and `height`.
int grain_jpeg_start(grain_jpeg *reader, unsigned scale_num, unsigned scale_denom, uint32_t *width, uint32_t *height);
/// Writes the next row (width * 3 bytes) into `row`. 0 on success.
int grain_jpeg_read_row(grain_jpeg *reader, uint8_t *row);
/// The last error message (empty if none).
const char *grain_jpeg_message(const grain_jpeg *reader);
void grain_jpeg_close(grain_jpeg *reader);

#endif
