"""The web app: the course in the browser. Learner code never runs here, only in the browser."""
