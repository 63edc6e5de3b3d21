/* drtree.c: the double-rooted binary tree of seed 004 sec. 2.1.1, built by merging (Figure 2.2).
 *
 * The thesis gives the set-up twice: as pseudocode run by every node on its own address, and as
 * the four steps of merging two trees (Figure 2.2). They are the same construction; the
 * pseudocode indexes port-relation by bit positions of an address that FT3 and BT3 keep
 * relabelling, and does not say in which frame (physical or current) each index is meant, so
 * this file follows the four steps, which name every node and link:
 *   base: the 3-level tree of the pseudocode's case table (cases 0-7) on the 3-cube;
 *   1. apply FT3 to bits 2, 1, 0 of the duplicate tree's addresses;
 *   2. join the two d-cubes: 0 before the original's addresses, 1 before the duplicate's;
 *   3. remove links 0S100-0S110 and 1S100-1S000, attach 0S000-1S000, 0S110-1S110 and
 *      0S100-1S100 (S: bits 3 .. d-1, all zero at these nodes), so 0S100 becomes the root;
 *   4. apply BT3 to bits d, 2, 0 (x_i, x_j, x_k), which brings the root to 0S000.
 * Every node can run this for the whole cube, as the pseudocode's loop does for its own address
 * (d - 3 merges). tests/check_cube.c checks the result is a double-rooted tree with every edge a
 * cube edge for every d, and that the base is the pseudocode's table.
 *
 * d = 1 and d = 2 are below the thesis's 3-level base (RH(k,1) has a 2-cube of BBs, and its BBs
 * of RH(1,1) are 1-cubes): there the tree is the same shape cut down, root 0 with child 1 and
 * spacer 2 whose child is 3 (d = 2), root 0 with child 1 (d = 1). */
#include "alg/drtree.h"

static const int ft3[8] = { 4, 0, 5, 1, 6, 2, 7, 3 };   /* Table 2.1 */
static const int bt3[8] = { 1, 5, 0, 4, 3, 7, 2, 6 };   /* Table 2.2 */

int hr__ft3(int x) { return ft3[x & 7]; }
int hr__bt3(int x) { return bt3[x & 7]; }

/* Apply table t to the bits (bi, bj, bk) of a, as x_i x_j x_k. */
static int relabel(const int *t, int a, int bi, int bj, int bk)
{
    int x = ((a >> bi) & 1) << 2 | ((a >> bj) & 1) << 1 | ((a >> bk) & 1);
    int y = t[x];
    a &= ~(1 << bi | 1 << bj | 1 << bk);
    return a | ((y >> 2) & 1) << bi | ((y >> 1) & 1) << bj | (y & 1) << bk;
}

static int map_or_root(const int *t, int a, int bi, int bj, int bk)
{
    return a < 0 ? -1 : relabel(t, a, bi, bj, bk);
}

int hr__drtree(int d, int *parent)
{
    if (d < 1 || d > HR_DRTREE_MAX)
        return -1;
    if (d < 3) {
        static const int small[2][4] = { { -1, 0 }, { -1, 0, 0, 2 } };
        for (int x = 0; x < 1 << d; x++)
            parent[x] = small[d - 1][x];
        return 0;
    }
    /* The pseudocode's cases 0-7: port-relation p (parent) and c (child) by bit position. */
    static const int base[8] = { -1, 0, 6, 1, 0, 1, 4, 6 };
    int tmp[1 << HR_DRTREE_MAX];
    for (int x = 0; x < 8; x++)
        parent[x] = base[x];
    for (int h = 3; h < d; h++) {
        int half = 1 << h;
        for (int x = 0; x < half; x++) {                   /* steps 1 and 2 */
            tmp[x] = parent[x];
            int dup = half | relabel(ft3, x, 2, 1, 0);
            tmp[dup] = parent[x] < 0 ? -1 : half | relabel(ft3, parent[x], 2, 1, 0);
        }
        tmp[6] = half | 6;                                 /* step 3 */
        tmp[half] = 0;
        tmp[0] = 4;
        tmp[4] = -1;
        tmp[half | 4] = 4;
        for (int x = 0; x < 2 * half; x++)                 /* step 4 */
            parent[relabel(bt3, x, h, 2, 0)] = map_or_root(bt3, tmp[x], h, 2, 0);
    }
    return 0;
}
