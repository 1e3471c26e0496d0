"""The skill model: source files, skills, frontmatter, citations and the header block."""
