import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { KeyIcon } from '../../components/icons';
import { useStore } from '../../store';

/** The environment's RSA public key: integrations encrypt the session key for card secrets with it. */
export function PublicKeyCard() {
  const key = useStore((s) => (s.publicKey?.env === s.env ? s.publicKey : null));
  const env = useStore((s) => s.env);
  return (
    <Card
      title={
        <span className="title-with-icon">
          <KeyIcon /> RSA public key · {env}
        </span>
      }
      subtitle="Encrypt the session key with it (RSA-OAEP, SHA-1) to read a card’s PAN, CVC and PIN. Each environment has its own pair."
      actions={key && <CopyButton value={key.public_key_pem} label="Copy PEM" testId="public-key-copy" />}
      testId="public-key"
    >
      <pre className="code-block pem" data-testid="public-key-pem">
        {key ? key.public_key_pem.trim() : 'Loading…'}
      </pre>
    </Card>
  );
}
