// Component-test setup: filled in with the console.
