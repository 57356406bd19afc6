"""Bot-only helpers of Ice and Fire: a mutable seat-relative board and the chain/cut tactics."""
