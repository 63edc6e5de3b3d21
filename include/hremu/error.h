/* hremu error codes: defined once as X-macro rows, expanded into the enum and hr_strerror(). */
#ifndef HREMU_ERROR_H
#define HREMU_ERROR_H

#define HR_ERRNO_MAP(X)                                              \
    X(EINVAL,   -1, "invalid argument")                              \
    X(ENOMEM,   -2, "out of memory")                                 \
    X(ERANGE,   -3, "value out of range")                            \
    X(ENOENT,   -4, "no such name")                                  \
    X(EDEADLK,  -5, "deadlock: every processor waits and nothing can arrive") \
    X(EFAIL,    -6, "the algorithm reported a failure")              \
    X(EVERIFY,  -7, "the result failed verification")                \
    X(ESYS,     -8, "system call failed")                            \
    X(EKIND,    -9, "algorithm cannot take this workload or machine")    \
    X(EMISUSE, -10, "the algorithm misused the hremu API")

typedef enum hr_err {
    HR_OK = 0,
#define HR_ERR_ENUM(name, val, text) HR_##name = (val),
    HR_ERRNO_MAP(HR_ERR_ENUM)
#undef HR_ERR_ENUM
} hr_err;

/* The text of an error code; never NULL. Any thread. */
const char *hr_strerror(int err);

#endif /* HREMU_ERROR_H */
