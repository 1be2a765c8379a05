/*
** binary_trees.h -- the binary trees of the allocation benchmarks (the
** classic allocator stress: a tree of 2^(depth+1) - 1 nodes built, walked
** and freed), over the allocator the includer names: TREE_ALLOC(size) and
** TREE_FREE(p), each counting its op. micro.c runs it on malloc,
** pool_bench.c on a pool's slab, so the two measure the same work.
*/
#ifndef BINARY_TREES_H
#define BINARY_TREES_H

#include <stddef.h>

typedef struct node {
  struct node *left, *right;
  int value;
} node;

static node *make_tree(int depth) {
  node *n = TREE_ALLOC(sizeof *n);
  n->value = depth;
  if (depth > 0) {
    n->left = make_tree(depth - 1);
    n->right = make_tree(depth - 1);
  } else {
    n->left = n->right = NULL;
  }
  return n;
}

static long check_tree(const node *n) {
  return n->left ? n->value + check_tree(n->left) - check_tree(n->right) : n->value;
}

static void free_tree(node *n) {
  if (n->left) {
    free_tree(n->left);
    free_tree(n->right);
  }
  TREE_FREE(n);
}

#endif /* BINARY_TREES_H */
