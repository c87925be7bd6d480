// A window in a child process that the property test kills mid-write (SIGKILL, as a killed extension host): it saves
// conversations with large messages and appends ledger lines as fast as it can, and prints each one once it is on
// disk ("saved <conversation> <message>", "ledger <id>"), so the test knows what must have survived.
import { SharedMemento, Window, ledgerEntry } from './windows';

const [root, prefix] = process.argv.slice(2);
let n = 0;
const window = new Window(root, new SharedMemento(), () => `${prefix}-${n++}`);

async function main(): Promise<void> {
  await window.open();
  for (let i = 0; ; i++) {
    const conversation = i % 3 === 0 ? window.store.create() : window.store.active;
    conversation.title = `${prefix} ${i}`;
    conversation.titled = true;
    const [question] = await window.answer(conversation, `${prefix}-${i}`, false);
    question.text += 'y'.repeat(200_000); // a long write: more chances to be cut
    window.store.save(conversation);
    await window.store.flushed();
    process.stdout.write(`saved ${conversation.id} ${question.id}\n`);
    const id = 1_000_000 + Number(prefix.replace(/\D/g, '')) * 10_000 + i;
    await window.ledger.append(ledgerEntry('worker', id));
    process.stdout.write(`ledger ${id}\n`);
  }
}

void main();
