/* drtree.h: the double-rooted binary tree on a hypercube (seed 004 sec. 2.1.1, after Deshpande
 * and Jenevein): a complete binary tree of d levels whose root has one child through a spacer
 * node, 2^d nodes in all, mapped one to one onto the d-cube with every tree edge a cube edge. */
#ifndef HREMU_ALG_DRTREE_H
#define HREMU_ALG_DRTREE_H

#define HR_DRTREE_MAX 10     /* d up to this (1024 vertices) */

/* Transformations FT3 and BT3 (Tables 2.1 and 2.2) on a 3-bit value x_i x_j x_k (x_i the most
 * significant of the three). */
int hr__ft3(int x);
int hr__bt3(int x);

/* parent[x] for every vertex x of the d-cube, 1 <= d <= HR_DRTREE_MAX: the root is vertex 0
 * (parent -1), its children are 1 and the spacer 4 (d >= 3; d = 2: 1 and the spacer 2; d = 1:
 * 1 only), the spacer's child is 6 (d = 2: 3). -1 if d is out of range. */
int hr__drtree(int d, int *parent);

#endif
