"""The call tree's typed nodes and the JSON -> node parser."""

# nodes before resolved (nodes.py re-exports resolved.py's classes, which subclass its Node)
import dialectic.tree.nodes
import dialectic.tree.reader  # noqa: F401  (with the forms and the recursion nodes)
