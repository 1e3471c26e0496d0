"""Rule families. Every module here registers its rules on import (see ``skillsmith.registry``)."""
