"""Language facts: Python through ``ast``, shell through tree-sitter-bash, and ``bash -n``."""
