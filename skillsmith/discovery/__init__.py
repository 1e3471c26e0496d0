"""From the paths a user gives to skills and scripts: the one tree walk, and git with safe options."""
