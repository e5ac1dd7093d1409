"""The call tree's typed nodes and the JSON -> node parser."""
