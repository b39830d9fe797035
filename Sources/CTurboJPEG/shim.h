#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <turbojpeg.h>
