"""Ice and Fire tests (a package, so their module names do not clash with other games' test_rules.py)."""
