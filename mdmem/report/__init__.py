"""Stats, trend and the HTML report: the memory's health, read from the review's own plan."""
