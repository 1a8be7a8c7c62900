# An engine that greets properly, then thinks forever (in a child process, which must be
# stopped with it).
read -r hello
echo '{"type": "ready", "protocol": 1}'
read -r question
sleep 60
