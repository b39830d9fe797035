#include "CJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

struct grain_jpeg {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX + 40];
    const uint8_t *data;
    size_t size;
    unsigned max_scans;
    int created;
};

static void on_error(j_common_ptr info) {
    grain_jpeg *reader = info->client_data;
    (*info->err->format_message)(info, reader->message);
    longjmp(reader->jump, 1);
}

/* Level -1 is a warning: corrupt or truncated data that libjpeg would paper over with grey. */
static void on_message(j_common_ptr info, int level) {
    if (level < 0) on_error(info);
}

static void on_progress(j_common_ptr info) {
    j_decompress_ptr decompress = (j_decompress_ptr)info;
    grain_jpeg *reader = info->client_data;
    if (decompress->progressive_mode && decompress->input_scan_number > (int)reader->max_scans) {
        snprintf(reader->message, sizeof reader->message, "progressive JPEG has more than %u scans", reader->max_scans);
        longjmp(reader->jump, 1);
    }
}

grain_jpeg *grain_jpeg_open(const uint8_t *data, size_t size, unsigned max_scans) {
    grain_jpeg *reader = calloc(1, sizeof *reader);
    if (!reader) return NULL;
    reader->data = data;
    reader->size = size;
    reader->max_scans = max_scans;
    reader->info.err = jpeg_std_error(&reader->errors);
    reader->errors.error_exit = on_error;
    reader->errors.emit_message = on_message;
    reader->info.client_data = reader;
    if (setjmp(reader->jump)) {
        free(reader);
        return NULL;
    }
    jpeg_create_decompress(&reader->info);
    reader->created = 1;
    reader->progress.progress_monitor = on_progress;
    reader->info.progress = &reader->progress;
    return reader;
}

int grain_jpeg_start(grain_jpeg *reader, unsigned scale_num, unsigned scale_denom, uint32_t *width, uint32_t *height) {
    if (setjmp(reader->jump)) return -1;
    jpeg_mem_src(&reader->info, reader->data, (unsigned long)reader->size);
    jpeg_read_header(&reader->info, TRUE);
    if (reader->info.jpeg_color_space == JCS_CMYK || reader->info.jpeg_color_space == JCS_YCCK) {
        snprintf(reader->message, sizeof reader->message, "CMYK is not decoded by rows");
        return -1;
    }
    reader->info.out_color_space = JCS_RGB;
    reader->info.scale_num = scale_num;
    reader->info.scale_denom = scale_denom;
    jpeg_start_decompress(&reader->info);
    if (reader->info.output_components != 3) {
        snprintf(reader->message, sizeof reader->message, "unexpected output layout");
        return -1;
    }
    *width = reader->info.output_width;
    *height = reader->info.output_height;
    return 0;
}

int grain_jpeg_read_row(grain_jpeg *reader, uint8_t *row) {
    if (setjmp(reader->jump)) return -1;
    JSAMPROW rows[1] = {row};
    if (jpeg_read_scanlines(&reader->info, rows, 1) != 1) {
        snprintf(reader->message, sizeof reader->message, "JPEG data ended before the last row");
        return -1;
    }
    return 0;
}

const char *grain_jpeg_message(const grain_jpeg *reader) {
    return reader->message;
}

void grain_jpeg_close(grain_jpeg *reader) {
    if (!reader) return;
    if (reader->created) jpeg_destroy_decompress(&reader->info);
    free(reader);
}
