// A minimal multipart/form-data parser (the body is already bounded by maxBodyBytes).

export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** The boundary of a multipart content type, or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const m = contentType ? /^multipart\/form-data\b.*?;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType) : null;
  return m ? (m[1] ?? m[2]) : undefined;
}

/** Splits a multipart body into parts; throws on a body that does not follow the format. */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new Error('multipart boundary not found');
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString() === '--') break; // closing delimiter
    pos += 2; // CRLF after the delimiter
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd < 0) throw new Error('multipart part without headers');
    const headers = body.subarray(pos, headerEnd).toString('utf8');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) throw new Error('multipart body not terminated');
    parts.push(partFrom(headers, body.subarray(headerEnd + 4, next)));
    pos = next + 2;
  }
  return parts;
}

function partFrom(headers: string, data: Buffer): FormPart {
  const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
  const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
  if (name === undefined) throw new Error('multipart part without a name');
  const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
  const contentType = /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1]?.trim();
  return { name, filename, contentType, data };
}
