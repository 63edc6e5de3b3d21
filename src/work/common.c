/* common.c: the workloads' shared helpers (common.h). */
#include "work/common.h"

#include <stdarg.h>
#include <stdio.h>

int hr__work_fail(char *why, size_t whylen, int code, const char *fmt, ...)
{
    if (why != NULL && whylen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return code;
}
