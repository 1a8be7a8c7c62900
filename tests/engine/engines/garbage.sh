# An engine that greets properly, then answers a decision with a line that is not JSON.
read -r hello
echo '{"type": "ready", "protocol": 1}'
read -r question
echo 'I move the knight to e4'
read -r rest
