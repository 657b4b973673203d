// A spawn helper that cannot start: it exits before saying it is ready.
process.exit(3);
