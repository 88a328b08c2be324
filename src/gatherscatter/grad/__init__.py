"""(planned: see the issues)"""
