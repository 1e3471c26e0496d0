0.1.0.post4
