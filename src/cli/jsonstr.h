/* jsonstr.h: a string as a JSON string literal, for the JSON rows, the JSON trace and the data
 * of the --html page's script. Any thread. */
#ifndef HREMU_CLI_JSONSTR_H
#define HREMU_CLI_JSONSTR_H

#include <stdio.h>

/* s as a JSON string, quotes included: '"' and '\' escaped, control characters as \n, \t or
 * \u00XX, and bytes that are not UTF-8 (a file name in another encoding) each as U+FFFD, so the
 * text is valid JSON whatever s holds. */
void hr__json_string(FILE *out, const char *s);
/* The same, also safe inside an HTML <script> element: '<', '>' and '&' as \u003c, \u003e,
 * \u0026 (so no "</script>" or "<!--" can appear), and U+2028, U+2029 escaped (line ends to
 * older JavaScript). */
void hr__json_script_string(FILE *out, const char *s);

#endif /* HREMU_CLI_JSONSTR_H */
