#include "CPNG.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct grain_png {
    FILE *file;
    png_structp png;
    png_infop info;
    jmp_buf jump;
    char message[200];
    uint32_t width;
    uint32_t height;
    size_t row_bytes;
    uint32_t next_row;
    /* Interlaced images only: the whole decoded image. */
    uint8_t *image;
};

static void on_error(png_structp png, png_const_charp message) {
    grain_png *reader = png_get_error_ptr(png);
    snprintf(reader->message, sizeof reader->message, "%s", message ? message : "unknown libpng error");
    longjmp(reader->jump, 1);
}

/* Warnings (bad CRCs in ancillary chunks, unknown profiles) do not stop a photo from being read. */
static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

grain_png *grain_png_open(FILE *file, uint32_t max_width, uint32_t max_height, size_t max_chunk_bytes) {
    grain_png *reader = calloc(1, sizeof *reader);
    if (!reader) {
        if (file) fclose(file);
        return NULL;
    }
    reader->file = file;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_error, on_warning);
    if (reader->png) reader->info = png_create_info_struct(reader->png);
    if (!reader->png || !reader->info) {
        grain_png_close(reader);
        return NULL;
    }
    png_set_user_limits(reader->png, max_width, max_height);
    /* Bounds every chunk libpng allocates, decompressed iCCP and text included. */
    png_set_chunk_malloc_max(reader->png, max_chunk_bytes);
    png_set_chunk_cache_max(reader->png, 256);
    return reader;
}

int grain_png_read_header(grain_png *reader, grain_png_header *header) {
    memset(header, 0, sizeof *header);
    if (!reader->file) {
        snprintf(reader->message, sizeof reader->message, "no file");
        return -1;
    }
    if (setjmp(reader->jump)) return -1;
    png_init_io(reader->png, reader->file);
    png_read_info(reader->png, reader->info);
    png_uint_32 width = 0, height = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(reader->png, reader->info, &width, &height, &depth, &color, &interlace, NULL, NULL);
    reader->width = width;
    reader->height = height;
    header->width = width;
    header->height = height;
    header->has_alpha = (color & PNG_COLOR_MASK_ALPHA) || png_get_valid(reader->png, reader->info, PNG_INFO_tRNS);
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 profile_length = 0;
    if (png_get_iCCP(reader->png, reader->info, &name, &compression, &profile, &profile_length)) {
        header->icc = profile;
        header->icc_length = profile_length;
    }
    png_bytep exif = NULL;
    png_uint_32 exif_length = 0;
    if (png_get_eXIf_1(reader->png, reader->info, &exif_length, &exif)) {
        header->exif = exif;
        header->exif_length = exif_length;
    }
    return 0;
}

int grain_png_start(grain_png *reader) {
    if (setjmp(reader->jump)) return -1;
    png_structp png = reader->png;
    png_set_expand(png); /* palette to RGB, gray below 8 bits to 8 bits, tRNS to alpha */
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, reader->info);
    reader->row_bytes = png_get_rowbytes(png, reader->info);
    int channels = png_get_channels(png, reader->info);
    if ((channels != 3 && channels != 4) || reader->row_bytes != (size_t)reader->width * channels) {
        snprintf(reader->message, sizeof reader->message, "unexpected output layout");
        return -1;
    }
    if (passes > 1) {
        reader->image = malloc(reader->row_bytes * reader->height);
        png_bytep *rows = malloc(sizeof(png_bytep) * reader->height);
        if (!reader->image || !rows) {
            free(rows);
            snprintf(reader->message, sizeof reader->message, "out of memory");
            return -1;
        }
        for (uint32_t y = 0; y < reader->height; y++) rows[y] = reader->image + reader->row_bytes * y;
        if (setjmp(reader->jump)) {
            free(rows);
            return -1;
        }
        png_read_image(png, rows);
        free(rows);
    }
    return channels;
}

int grain_png_read_row(grain_png *reader, uint8_t *row) {
    if (reader->next_row >= reader->height) {
        snprintf(reader->message, sizeof reader->message, "read past the last row");
        return -1;
    }
    if (reader->image) {
        memcpy(row, reader->image + reader->row_bytes * reader->next_row, reader->row_bytes);
        reader->next_row++;
        return 0;
    }
    if (setjmp(reader->jump)) return -1;
    png_read_row(reader->png, row, NULL);
    reader->next_row++;
    return 0;
}

const char *grain_png_message(const grain_png *reader) { return reader->message; }

void grain_png_close(grain_png *reader) {
    if (!reader) return;
    if (reader->png) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader->image);
    if (reader->file) fclose(reader->file);
    free(reader);
}
