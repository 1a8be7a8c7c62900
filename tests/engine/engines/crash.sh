# An engine that greets properly, then dies at the first decision, with a word on stderr.
read -r hello
echo '{"type": "ready", "protocol": 1}'
read -r question
echo 'engine.sh: out of ideas' >&2
exit 3
