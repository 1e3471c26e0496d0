"""The hosts a skill is written for: agentskills, stabledge, kvist, sucoder."""
