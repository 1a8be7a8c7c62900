// A small engine in JavaScript for the tests: it speaks the engine protocol (version 1)
// on stdin and stdout. The first argument chooses how it plays:
//   first    the first legal action
//   last     the last legal action
//   illegal  an action that is never legal
//   future   claims protocol 2 in its ready answer
//   counter FILE   legal[n % count], n read from FILE and bumped at start (so every
//                  process of it plays differently: not deterministic across copies)
//   record FILE    the last legal action; writes every message it got to FILE at the end
'use strict';
const fs = require('fs');
const readline = require('readline');

const mode = process.argv[2] || 'first';
const file = process.argv[3];
let n = 0;
if (mode === 'counter') {
  n = fs.existsSync(file) ? parseInt(fs.readFileSync(file, 'utf8'), 10) : 0;
  fs.writeFileSync(file, String(n + 1));
}
const received = [];

function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  received.push(message);
  if (message.type === 'hello') {
    send({ type: 'ready', protocol: mode === 'future' ? 2 : 1, name: 'node ' + mode });
  } else if (message.type === 'decide') {
    const legal = message.legal;
    let action = legal[0];
    if (mode === 'last' || mode === 'record') action = legal[legal.length - 1];
    if (mode === 'illegal') action = 'dance a jig';
    if (mode === 'counter') action = legal[n % legal.length];
    send({ type: 'action', id: message.id, action: action });
  } else if (message.type === 'end') {
    lines.close();
  }
});
lines.on('close', () => {
  if (mode === 'record') fs.writeFileSync(file, JSON.stringify(received));
  process.exit(0);
});
