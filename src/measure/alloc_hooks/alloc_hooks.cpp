namespace benchkit {}
