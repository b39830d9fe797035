#include <stddef.h>
#include <stdint.h>
#include <libde265/de265.h>
