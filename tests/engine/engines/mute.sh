# An engine that never answers hello.
sleep 60
