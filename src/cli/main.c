/* main.c: the hremu command: the library's hremu_main with the built-in algorithms. */
#include <hremu/main.h>

int main(int argc, char **argv)
{
    return hremu_main(argc, argv);
}
