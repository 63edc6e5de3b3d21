/* hr_strerror: the text of each error code, from the same rows as the enum. */
#include <hremu/error.h>

const char *hr_strerror(int err)
{
    switch (err) {
    case HR_OK: return "success";
#define HR_ERR_TEXT(name, val, text) case HR_##name: return text;
    HR_ERRNO_MAP(HR_ERR_TEXT)
#undef HR_ERR_TEXT
    default: return "unknown error";
    }
}
