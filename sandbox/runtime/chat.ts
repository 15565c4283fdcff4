/**
 * A chat channel that needs no account: POST /__sandbox/chat takes what a Slack incoming webhook takes (`{text}`),
 * so an example can post its "chat message" with n8n's HTTP Request node and a user (or a test) can read it back.
 */
import { iso } from '../data/time';

export interface ChatMessage {
	text: string;
	received_at: string;
}

/** Enough for any demo; the oldest messages go first so a long-running dev bank does not grow without end. */
const CHAT_CAP = 1_000;

export class ChatInbox {
	private readonly messages: ChatMessage[] = [];

	post(text: string, nowMs: number): ChatMessage {
		const message = { text, received_at: iso(nowMs) };
		this.messages.push(message);
		if (this.messages.length > CHAT_CAP) this.messages.splice(0, this.messages.length - CHAT_CAP);
		return message;
	}

	/** Oldest first, as a channel reads. */
	list(): ChatMessage[] {
		return [...this.messages];
	}

	clear(): void {
		this.messages.length = 0;
	}
}

const escapeHtml = (text: string) =>
	text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** The inbox as a page a browser shows (newest first; it reloads itself every 5 s so new messages appear). */
export function chatPage(messages: ChatMessage[]): string {
	const items = [...messages]
		.reverse()
		.map((m) => `<li><time>${escapeHtml(m.received_at)}</time><pre>${escapeHtml(m.text)}</pre></li>`)
		.join('\n');
	return `<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Sandbox chat</title>
<style>body{font-family:sans-serif;max-width:48rem;margin:2rem auto}li{list-style:none;border-bottom:1px solid #ddd;padding:.5rem 0}time{color:#666;font-size:.85rem}pre{white-space:pre-wrap;margin:.25rem 0;font-family:inherit}</style>
</head><body><h1>Sandbox chat</h1><p>${messages.length} message(s). Examples post here with an HTTP Request to this URL (POST, JSON <code>{"text": "…"}</code>).</p>
<ul>${items || '<li>No messages yet.</li>'}</ul></body></html>`;
}
